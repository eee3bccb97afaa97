/* eval/: how close an extracted text is to the true main content.
 *
 * Three families of measures, each per page; the caller averages or sums
 * them.
 *
 * - The public article-extraction benchmark's (../shared/README.md): tokens
 *   are the \w+ runs of a text as Python's re sees them (letters, digits,
 *   marks excluded, and '_'), shingles the 4-grams of tokens (a text of fewer
 *   than four tokens is one shingle, a text of none has none), compared as
 *   multisets: tp, fp, fn, each divided by tp + fp + fn.
 *   The same measure with a second tokenizer that reads every script
 *   (eval_shingle_match_scripts): Han, Kana, Hangul, Thai, Lao, Khmer and
 *   Myanmar one token per character, elsewhere runs of \w characters with
 *   their combining marks.
 * - trafilatura's evaluation: passages that must appear in the output and
 *   boilerplate that must not, counted over a corpus (eval_snippets).
 * - The GCE paper's (section IV): the longest common subsequence of tokens
 *   (here scripts written without spaces, such as Han, Kana and Thai, count
 *   one token per character, so a Japanese sentence is not one "word"), and
 *   matched text blocks (an output line found in the true text).
 *
 * Pure functions of their inputs; no state, safe on any thread.
 */
#ifndef GLANCE_EVAL_H
#define GLANCE_EVAL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The benchmark's shingle counts of one page, as fractions of tp+fp+fn
 * (all 0 when both texts have no shingle). */
typedef struct eval_shingles {
    double tp, fp, fn;
    int tokens_equal; /* 1 when the two token lists are identical (accuracy) */
} eval_shingles;

/* 0, or -1 when out of memory. NULL texts count as empty. */
int eval_shingle_match(const char *truth, const char *pred, eval_shingles *out);

/* The same, with the tokens of eval_count_script_tokens: same shingles of
 * four tokens, same multisets, same fractions. */
int eval_shingle_match_scripts(const char *truth, const char *pred, eval_shingles *out);

/* Precision, recall and F-scores of one page. When the output is empty:
 * all 0 unless the truth is empty too (then all 1); an empty truth with
 * a non-empty output: all 0. */
typedef struct eval_prf {
    double precision, recall, f1, f05;
} eval_prf;

/* Token LCS: precision = LCS / output tokens, recall = LCS / true tokens.
 * 0, or -1 when out of memory. */
int eval_lcs(const char *truth, const char *pred, eval_prf *out);
/* The LCS length itself, for tests. -1 when out of memory. */
long eval_lcs_length(const char *truth, const char *pred);

/* Matched text blocks: the output's blocks are its non-blank lines, white
 * space collapsed; a block matches when it occurs in the true text (white
 * space collapsed too). Precision = matched blocks / blocks; recall =
 * characters of matched blocks / characters of the true text (at most 1).
 * 0, or -1 when out of memory. */
int eval_blocks(const char *truth, const char *pred, eval_prf *out);

/* Number of \w+ tokens (the benchmark's) and of LCS tokens of a text. */
size_t eval_count_tokens(const char *text);
size_t eval_count_lcs_tokens(const char *text);
/* Number of the variant's tokens: each letter of Han, Hiragana, Katakana,
 * Hangul, Thai, Lao, Khmer and Myanmar (HarfBuzz's script), with the marks
 * that follow it, is a token; elsewhere a token is a run of \w characters
 * and marks (general categories Mn, Mc, Me), so that a Thai consonant keeps
 * its vowel signs and tone marks and a Hindi or Arabic word its matras,
 * viramas and harakat. A mark that follows no token is left out. */
size_t eval_count_script_tokens(const char *text);

/* Snippets, as trafilatura's evaluation counts them: over a corpus, a
 * passage that must appear (`with`) is a true positive when found in the
 * output and a false negative when not; boilerplate that must not
 * (`without`) a false positive when found, a true negative when not.
 * "Found": the snippet is a substring of the output once both have their
 * white space collapsed (every run of the characters Python's str.split()
 * splits at, ASCII's and Unicode's spaces, U+00A0 and U+3000 among them,
 * becomes one space; both ends trimmed); case and everything else kept. An
 * empty snippet is found everywhere, as Python's `in` finds it. */
typedef struct eval_snippets {
    size_t tp, fn, fp, tn;
} eval_snippets;

/* One page's counts into *out (set, not added). 0, or -1 when out of
 * memory. A NULL output counts as empty. */
int eval_snippets_page(const char *pred, const char *const *with, size_t n_with,
                       const char *const *without, size_t n_without, eval_snippets *out);
/* Adds one page's counts to a total. */
void eval_snippets_add(eval_snippets *total, const eval_snippets *page);
/* Precision tp / (tp + fp), recall tp / (tp + fn), F1 2PR / (P + R) and
 * F0.5 of counts (micro: over every snippet of the pages counted); a ratio
 * with nothing under it is 0. */
void eval_snippets_prf(const eval_snippets *s, eval_prf *out);

/* Running means over pages, as the benchmark takes them: precision over
 * pages with tp + fp > 0 (or with nothing on either side, counted as 1),
 * recall likewise with tp + fn, F1 from the two means. */
typedef struct eval_shingle_means {
    size_t pages;
    double p_sum, r_sum;
    size_t p_n, r_n;
    size_t equal;
} eval_shingle_means;

typedef struct eval_summary {
    size_t pages;
    eval_shingle_means shingles;          /* the benchmark's tokens */
    eval_shingle_means scripts;           /* the variant's (eval_summary_add_scripts) */
    double lcs_p, lcs_r, lcs_f1, lcs_f05; /* sums */
    double blk_p, blk_r, blk_f1, blk_f05; /* sums */
    size_t snippet_pages;                 /* pages with snippets (eval_summary_add_snippets) */
    eval_snippets snippets;               /* their counts, summed */
} eval_summary;

/* One page: the benchmark's shingles, LCS and blocks. */
void eval_summary_add(eval_summary *s, const eval_shingles *sh, const eval_prf *lcs,
                      const eval_prf *blocks);
/* The same page's shingles with the variant's tokens. */
void eval_summary_add_scripts(eval_summary *s, const eval_shingles *sh);
/* The same page's snippet counts, when its truth has snippets. */
void eval_summary_add_snippets(eval_summary *s, const eval_snippets *page);

typedef struct eval_scores {
    size_t pages;
    double precision, recall, f1, accuracy;           /* the benchmark's */
    double lcs_p, lcs_r, lcs_f1, lcs_f05;             /* GCE paper, means */
    double blk_p, blk_r, blk_f1, blk_f05;
    size_t scripts_pages;                             /* the variant's tokens */
    double scripts_precision, scripts_recall, scripts_f1, scripts_accuracy;
    size_t snippet_pages;                             /* 0: no snippets */
    eval_snippets snippets;
    eval_prf snippet;                                 /* eval_snippets_prf of them */
} eval_scores;

void eval_summary_scores(const eval_summary *s, eval_scores *out);

#ifdef __cplusplus
}
#endif

#endif
