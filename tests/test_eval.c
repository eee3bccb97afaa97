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

/* The variant that reads every script: per character where words are not
 * spaced (and Hangul), runs of letters with their marks elsewhere. */
static void test_script_tokens(void **state)
{
    (void)state;
    eval_shingles s;
    /* Thai: ที่ is ท with a vowel sign above and a tone mark, one token with
     * both (\w keeps ท alone: the marks are not \w). */
    assert_int_equal(eval_count_script_tokens("ที่"), 1);
    assert_int_equal(eval_shingle_match("ที่", "ท", &s), 0);
    assert_true(s.tokens_equal); /* the benchmark's tokens cannot tell them apart */
    assert_int_equal(eval_shingle_match_scripts("ที่", "ท", &s), 0);
    assert_false(s.tokens_equal);
    assert_near(s.tp, 0);
    /* กิน: two letters, the vowel sign on the first: two tokens, not three. */
    assert_int_equal(eval_count_script_tokens("กิน"), 2);
    eval_shingle_match_scripts("กิน", "กน", &s);
    assert_false(s.tokens_equal);
    /* Thai letters without marks: one token each (\w: one run). */
    assert_int_equal(eval_count_script_tokens("ภาษาไทย"), 7);
    assert_int_equal(eval_count_tokens("ภาษาไทย"), 1);
    /* Hindi: हिन्दी (matra, virama, matra) is one word; \w cuts it in three. */
    assert_int_equal(eval_count_script_tokens("हिन्दी"), 1);
    assert_int_equal(eval_count_tokens("हिन्दी"), 3);
    assert_int_equal(eval_count_script_tokens("हिन्दी भाषा"), 2);
    /* Chinese and Korean: a token per character, Hangul included (the LCS
     * tokens keep a Korean word whole: base/'s unspaced scripts). */
    assert_int_equal(eval_count_script_tokens("中文字体"), 4);
    assert_int_equal(eval_count_script_tokens("한국어 문장"), 5);
    assert_int_equal(eval_count_lcs_tokens("한국어 문장"), 2);
    assert_int_equal(eval_count_script_tokens("日本語の文章です。次の文"), 11);
    assert_int_equal(eval_count_script_tokens("iPhone手机 2024年"), 5);
    assert_int_equal(eval_count_script_tokens("中文abc"), 3); /* 中, 文, abc */
    /* Arabic with harakat: كَتَبَ one token (\w: three letters apart);
     * the marks count, so it is not the bare كتب. */
    assert_int_equal(eval_count_script_tokens("كَتَبَ"), 1);
    assert_int_equal(eval_count_tokens("كَتَبَ"), 3);
    assert_int_equal(eval_count_script_tokens("العَرَبِيَّة لغة"), 2);
    eval_shingle_match_scripts("كَتَبَ", "كتب", &s);
    assert_false(s.tokens_equal);
    /* Latin as the benchmark reads it. A mark after no letter is left out;
     * a decomposed accent stays in its word. */
    assert_int_equal(eval_count_script_tokens("Hello, world! snake_case 42x"), 4);
    assert_int_equal(eval_count_script_tokens("café naïve"), 2);
    assert_int_equal(eval_count_script_tokens(" \xcc\x81 abc"), 1);
    assert_int_equal(eval_count_script_tokens("nai\xcc\x88ve"), 1);
    assert_int_equal(eval_count_tokens("nai\xcc\x88ve"), 2);
    assert_int_equal(eval_count_script_tokens(""), 0);
    assert_int_equal(eval_count_script_tokens(NULL), 0);
    static const char *const latin[][2] = {
        {"The quick brown fox jumps over the lazy dog", "quick brown fox jumps over a dog"},
        {"Ein Beispiel, mit Umlauten: Größe und Maß.", "Beispiel mit Umlauten Größe"},
    };
    for (size_t i = 0; i < 2; i++) {
        eval_shingles w, v;
        eval_shingle_match(latin[i][0], latin[i][1], &w);
        eval_shingle_match_scripts(latin[i][0], latin[i][1], &v);
        assert_near(w.tp, v.tp);
        assert_near(w.fp, v.fp);
        assert_near(w.fn, v.fn);
        assert_true(w.tp > 0 && w.fp + w.fn > 0);
    }
}

static void test_script_shingles_by_hand(void **state)
{
    (void)state;
    eval_shingles s;
    /* 中文字体设计 against 中文字体: one \w token each, different: tp 0,
     * fp 1/2, fn 1/2. Per character: truth 中文字体, 文字体设, 字体设计,
     * output 中文字体: tp 1, fp 0, fn 2, over 3. */
    eval_shingle_match("中文字体设计", "中文字体", &s);
    assert_near(s.tp, 0);
    assert_near(s.fp, 0.5);
    assert_near(s.fn, 0.5);
    assert_int_equal(eval_shingle_match_scripts("中文字体设计", "中文字体", &s), 0);
    assert_near(s.tp, 1 / 3.0);
    assert_near(s.fp, 0);
    assert_near(s.fn, 2 / 3.0);
    /* Means of the variant kept apart from the benchmark's. */
    eval_summary sum = {0};
    eval_shingles w = {0, 0.5, 0.5, 0}, v = {1 / 3.0, 0, 2 / 3.0, 0};
    eval_prf z = {0};
    eval_summary_add(&sum, &w, &z, &z);
    eval_summary_add_scripts(&sum, &v);
    eval_scores sc;
    eval_summary_scores(&sum, &sc);
    assert_near(sc.precision, 0);
    assert_near(sc.recall, 0);
    assert_near(sc.f1, 0);
    assert_int_equal(sc.scripts_pages, 1);
    assert_near(sc.scripts_precision, 1);
    assert_near(sc.scripts_recall, 1 / 3.0);
    assert_near(sc.scripts_f1, 0.5);
}

/* Snippets: two pages counted as trafilatura's evaluation counts them. */
static void test_snippets_by_hand(void **state)
{
    (void)state;
    /* Page 1: white space of any kind collapses on both sides (two spaces,
     * a line break, a no-break space in the output; an en space in a
     * snippet); case is kept. */
    const char *out1 = "The  quick\nbrown fox jumps.\xc2\xa0Over the dog.";
    const char *with1[] = {"quick brown fox", "fox jumps.\xe2\x80\x82Over the", "lazy dog",
                           "The Quick"};
    const char *without1[] = {"Over the dog", "Subscribe now"};
    eval_snippets p1, p2, total = {0};
    assert_int_equal(eval_snippets_page(out1, with1, 4, without1, 2, &p1), 0);
    assert_int_equal(p1.tp, 2); /* quick brown fox; fox jumps. Over the */
    assert_int_equal(p1.fn, 2); /* lazy dog; The Quick (case) */
    assert_int_equal(p1.fp, 1); /* Over the dog */
    assert_int_equal(p1.tn, 1); /* Subscribe now */
    /* Page 2: no output: every `with` missed, every `without` absent. */
    const char *with2[] = {"anything"};
    const char *without2[] = {"Menu", "Log in"};
    assert_int_equal(eval_snippets_page(NULL, with2, 1, without2, 2, &p2), 0);
    assert_int_equal(p2.tp + p2.fp, 0);
    assert_int_equal(p2.fn, 1);
    assert_int_equal(p2.tn, 2);
    eval_snippets_add(&total, &p1);
    eval_snippets_add(&total, &p2);
    /* Micro over the corpus: tp 2, fn 3, fp 1, tn 3. P 2/3, R 2/5, F 1/2. */
    eval_prf r;
    eval_snippets_prf(&total, &r);
    assert_near(r.precision, 2 / 3.0);
    assert_near(r.recall, 0.4);
    assert_near(r.f1, 0.5);
    /* An empty snippet is found everywhere, as Python's `in` finds it. */
    const char *empty[] = {" \n"};
    eval_snippets p3;
    assert_int_equal(eval_snippets_page("", empty, 1, empty, 1, &p3), 0);
    assert_int_equal(p3.tp, 1);
    assert_int_equal(p3.fp, 1);
    /* Nothing found at all: 0, not a division by zero. */
    eval_snippets_prf(&p2, &r);
    assert_near(r.precision, 0);
    assert_near(r.recall, 0);
    assert_near(r.f1, 0);
    /* The summary sums the pages' counts. */
    eval_summary sum = {0};
    eval_summary_add_snippets(&sum, &p1);
    eval_summary_add_snippets(&sum, &p2);
    eval_scores sc;
    eval_shingles z = {0};
    eval_prf zp = {0};
    eval_summary_add(&sum, &z, &zp, &zp);
    eval_summary_scores(&sum, &sc);
    assert_int_equal(sc.snippet_pages, 2);
    assert_int_equal(sc.snippets.tn, 3);
    assert_near(sc.snippet.f1, 0.5);
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
        cmocka_unit_test(test_script_tokens),
        cmocka_unit_test(test_script_shingles_by_hand),
        cmocka_unit_test(test_snippets_by_hand),
        cmocka_unit_test(test_score_peer_files),
        cmocka_unit_test(test_score_reads_both_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
